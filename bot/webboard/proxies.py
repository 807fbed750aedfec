"""Who is asking: the client's address behind the operator's proxies.

``X-Forwarded-For`` is believed only from a proxy the operator named
(``HEXHALL_TRUSTED_PROXIES``): anyone else could write any address there and slip past the
limits per address.  Each proxy appends the address it was reached from, so the client is the
rightmost address that is not one of the operator's proxies.

>>> trusted = (ipaddress.ip_network("127.0.0.1"), ipaddress.ip_network("10.0.0.0/8"))
>>> client("127.0.0.1", "6.6.6.6, 203.0.113.9, 10.1.2.3", trusted)
'203.0.113.9'
>>> client("198.51.100.7", "203.0.113.9", trusted)  # not a proxy of ours: its header is its own
'198.51.100.7'
>>> client("127.0.0.1", "203.0.113.9", ())  # no proxy named: nobody's header is believed
'127.0.0.1'
>>> client("127.0.0.1", "not an address", trusted)
'127.0.0.1'
"""

from __future__ import annotations

import ipaddress

__all__ = ["Networks", "client"]

#: The operator's proxies: addresses (as one-address networks) and CIDR blocks.
Networks = tuple[ipaddress.IPv4Network | ipaddress.IPv6Network, ...]


def _trusted(address: str, trusted: Networks) -> bool:
    try:
        ip = ipaddress.ip_address(address.strip().removeprefix("[").removesuffix("]"))
    except ValueError:
        return False
    return any(ip in network for network in trusted)


def client(peer: str, forwarded: str, trusted: Networks) -> str:
    """The client's address: ``peer`` (the connection's other end), or when ``peer`` is one of
    the ``trusted`` proxies, the rightmost address of ``forwarded`` (``X-Forwarded-For``) that
    is not one of them (the last proxy's peer when that one is not an address at all)."""
    address = peer
    hops = [hop.strip() for hop in forwarded.split(",")] if forwarded else []
    while _trusted(address, trusted) and hops:
        hop = hops.pop()
        try:
            ipaddress.ip_address(hop.removeprefix("[").removesuffix("]"))
        except ValueError:
            break  # a proxy wrote something that is no address: its peer is all we know
        address = hop
    return address
