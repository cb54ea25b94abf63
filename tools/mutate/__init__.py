# SPDX-License-Identifier: GPL-2.0-only
"""dpmmutate's modules (tools/dpmmutate): mutants.py reads main.c through
libclang and makes the mutants, stages.py builds and runs one mutant,
report.py writes the report."""
