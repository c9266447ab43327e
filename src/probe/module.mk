# Probe user side: libm for the unit tests of the histogram math.
LDLIBS += -lm

# The symbolizer (src/probe/syms.c) reads ELF files with libelf.
LDLIBS += -lelf
