"""``python -m fltheory`` is the ``fltheory`` command."""

from fltheory.cli import main

if __name__ == "__main__":
    main()
