# SPDX-License-Identifier: GPL-2.0-only
# libtraceevent plugins: not built yet.
