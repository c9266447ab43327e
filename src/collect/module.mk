LDLIBS += -lmicrohttpd -lpthread
# --web.config.file: libyaml reads it, libcrypt checks bcrypt, GnuTLS (which
# libmicrohttpd loads anyway) checks the certificate and hashes the cache.
LDLIBS += -lyaml -lcrypt -lgnutls
