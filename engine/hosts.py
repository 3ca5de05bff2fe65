"""Whether an address a server binds keeps it on this machine (the public app's and the reward
server's checks: another address means visitors from other machines)."""
from __future__ import annotations

import ipaddress


def is_loopback(host: str) -> bool:
    """127.0.0.0/8, ::1 and localhost; anything else (0.0.0.0, a LAN address, a name) is not."""
    host = (host or "").strip().strip("[]")
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False
