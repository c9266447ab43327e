LDLIBS += -lsqlite3
