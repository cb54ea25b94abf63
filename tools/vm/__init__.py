# SPDX-License-Identifier: GPL-2.0-only
"""The guest kernels' side of dpmfuzz: guest.py runs scenarios as the test
module's parameters in a Debian kernel under QEMU (docs/vm.md)."""
