LDLIBS += -lpcap
