"""What the window tests of the live link wait on: ikpose having read what a game sent."""
import os
import time


def wait_until_read(port, timeout=30.0):
    """Waits until ikpose has read every byte its games sent to `port` and closed them: no
    connection to the port is still established or waiting for ikpose to close its end (the
    kernel's table; a slow window takes what its link read when it closes)."""
    local = ":%04X" % int(port)
    deadline = time.monotonic() + timeout
    while True:
        open_now = []
        for table in ("/proc/net/tcp", "/proc/net/tcp6"):
            if not os.path.exists(table):
                continue
            with open(table) as f:
                for row in f.readlines()[1:]:
                    fields = row.split()
                    # 01 established (read or not yet accepted), 08 close-wait (not read to EOF)
                    if fields[1].endswith(local) and fields[3] in ("01", "08"):
                        open_now.append(fields[3])
        if not open_now:
            return
        assert time.monotonic() < deadline, "ikpose did not read the game: %s" % open_now
        time.sleep(0.05)
