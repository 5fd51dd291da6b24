from meadow.cli import main

main()
