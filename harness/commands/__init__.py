"""One module per command of `cribbage-zx`, each with add_arguments(parser), execute(args) and main(argv),
raising the one domain error (harness.errors.HarnessError and its kinds); harness/cli.py maps names to them."""
