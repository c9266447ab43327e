#!/usr/bin/env python3
"""Runs a command with stdout (and stdin) on a pseudo-terminal of ROWS rows.

    ptyrun.py ROWS COLS CMD [ARGS...]

Copies what the command writes to our stdout and exits with its status
(128 + signal if killed). Used by the pidstat golden tests: pidstat
repeats its header every (rows - 2) samples when stdout is a terminal.
stderr stays as it was (not on the terminal).
"""
import fcntl
import os
import struct
import sys
import termios


def main():
    rows, cols, cmd = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3:]
    master, slave = os.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))
    pid = os.fork()
    if pid == 0:
        os.close(master)
        os.setsid()
        fcntl.ioctl(slave, termios.TIOCSCTTY, 0)
        os.dup2(slave, 0)
        os.dup2(slave, 1)
        os.close(slave)
        os.execvp(cmd[0], cmd)
    os.close(slave)
    out = sys.stdout.buffer
    while True:
        try:
            data = os.read(master, 65536)
        except OSError:  # EIO: the child closed the terminal
            break
        if not data:
            break
        out.write(data)
    out.flush()
    _, status = os.waitpid(pid, 0)
    if os.WIFSIGNALED(status):
        return 128 + os.WTERMSIG(status)
    return os.WEXITSTATUS(status)


if __name__ == "__main__":
    sys.exit(main())
