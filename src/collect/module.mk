LDLIBS += -lmicrohttpd -lpthread
