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
import threading


MARK = b"\x00ptyrun: end of output\x00"


def wait_then_mark(pid, slave, result):
    """Waits for the child, then writes MARK behind its last bytes."""
    result.append(os.waitpid(pid, 0)[1])
    os.write(slave, MARK)


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
    # Reading until EIO lost output: the kernel moves what the child wrote to
    # the master side in deferred work, and a read after the child's close
    # could see EIO first (seen under load: two lines of twenty). Instead we
    # keep the slave open and, once the child is gone, write MARK to it: the
    # terminal keeps order, so reading up to MARK reads all of the child's.
    status = []
    waiter = threading.Thread(target=wait_then_mark, args=(pid, slave, status))
    waiter.start()
    got = b""
    while not got.endswith(MARK):
        got += os.read(master, 65536)
    waiter.join()
    out = sys.stdout.buffer
    out.write(got[: -len(MARK)])
    out.flush()
    if os.WIFSIGNALED(status[0]):
        return 128 + os.WTERMSIG(status[0])
    return os.WEXITSTATUS(status[0])


if __name__ == "__main__":
    sys.exit(main())
