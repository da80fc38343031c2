"""One connection of the appliance VM to the broker on this machine: QEMU's guestfwd runs this for
each connection the guest makes to 10.0.2.100:1883, with the guest's side on stdin and stdout
(and stderr: nothing may be written there, or it would reach the guest as MQTT bytes), and it
relays the bytes both ways to 127.0.0.1:PORT until either side ends.

Usage: python3 broker-relay.py PORT"""

import os
import select
import socket
import sys

# QEMU hands the guest's socket over as stderr too: a traceback must not go down it.
null = os.open(os.devnull, os.O_WRONLY)
os.dup2(null, 2)


def relay(port):
    guest_in, guest_out = sys.stdin.fileno(), sys.stdout.fileno()
    broker = socket.create_connection(("127.0.0.1", port))
    open_ends = {guest_in, broker.fileno()}
    while open_ends:
        ready, _, _ = select.select(list(open_ends), [], [])
        for end in ready:
            data = os.read(end, 65536) if end == guest_in else broker.recv(65536)
            if not data:
                if end != guest_in:
                    return  # the broker ended the connection: so does the guest's side, on exit
                open_ends.discard(end)
                broker.shutdown(socket.SHUT_WR)
            elif end == guest_in:
                broker.sendall(data)
            else:
                while data:
                    data = data[os.write(guest_out, data):]


try:
    relay(int(sys.argv[1]))
except OSError:
    pass  # either side gone: the connection ends, as a network's would
