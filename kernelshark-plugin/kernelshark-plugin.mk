# SPDX-License-Identifier: GPL-2.0-only
# KernelShark data-readout plugin (plugin-fxt.so): not built yet.
