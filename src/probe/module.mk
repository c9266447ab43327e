# Probe user side: libm for the unit tests of the histogram math.
LDLIBS += -lm
