"""Allow ``python -m zperf``."""

from zperf.cli import main

if __name__ == "__main__":
    main()
