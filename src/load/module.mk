# The load explainer's unit tests compare against libm (exp, pow).
LDLIBS += -lm
