#!/usr/bin/env python3
"""The thumbnail reference of `make bench`: Pillow(-SIMD)'s draft-mode thumbnail() of one JPEG.

Usage: pillow-thumbnail.py FILE WIDTH HEIGHT RUNS
Reads FILE once, then RUNS times opens it from memory and makes a WIDTHxHEIGHT thumbnail
with Image.thumbnail() (which puts the JPEG decoder in draft mode: DCT scaling at decode
time, fast IDCT and upsampling). Prints one line: the median seconds of one thumbnail, the
Pillow version, and whether it is Pillow-SIMD.
"""

import io
import sys
import time
from importlib import metadata

from PIL import Image


def main() -> int:
    if len(sys.argv) != 5:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    path, width, height, runs = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
    with open(path, "rb") as handle:
        data = handle.read()

    def thumbnail() -> None:
        image = Image.open(io.BytesIO(data))
        image.thumbnail((width, height))
        if image.size[0] > width or image.size[1] > height:
            raise SystemExit(f"thumbnail is {image.size}, not within {width}x{height}")

    thumbnail()  # warm-up
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        thumbnail()
        times.append(time.perf_counter() - start)
    times.sort()
    try:
        name, version = "Pillow-SIMD", metadata.version("pillow-simd")
    except metadata.PackageNotFoundError:
        name, version = "Pillow", metadata.version("pillow")
    print(f"{times[len(times) // 2]:.6f} {name} {version}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
