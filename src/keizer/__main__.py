"""python -m keizer"""

from keizer.cli import main

main()
