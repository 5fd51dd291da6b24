"""`python -m meadow` runs the command line."""

from meadow.cli import main

if __name__ == "__main__":
    main()
