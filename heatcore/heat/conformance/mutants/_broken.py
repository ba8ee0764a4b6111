"""Engines that break the protocol itself after a few good replies."""

from __future__ import annotations

import json
import os
import sys
import time

from heatcore.framework.conformance.protocol import handle
from heatcore.heat.conformance.binding import HeatBinding


def misbehave(how: str, good: int = 2) -> int:
    """Answer ``good`` requests properly, then crash/hang/garbage/huge/close."""
    binding = HeatBinding()
    session: dict[str, object] = {}
    count = 0
    for line in sys.stdin:
        count += 1
        if count > good:
            if how == "crash":
                os._exit(3)
            if how == "hang":
                time.sleep(3600)
            if how == "garbage":
                sys.stdout.write("this is not json\n")
            elif how == "huge":
                sys.stdout.write("[" + "1," * (5 * 1024 * 1024) + "1]\n")
            elif how == "closes":
                sys.stdout.close()
                os.close(1)
                time.sleep(3600)
            sys.stdout.flush()
            continue
        reply = handle(binding, session, json.loads(line))
        sys.stdout.write(json.dumps(reply) + "\n")
        sys.stdout.flush()
    return 0
