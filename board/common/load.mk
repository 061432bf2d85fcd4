# load.mk: read a board: its board.mk (board_mk, the file), then the
# defaults of its architecture (arch-$(BOARD_ARCH).mk) and the shared ones
# (defaults.mk), both set with ?= so that the board's own values win.
# Included by image/image.mk; image/boardenv.sh prints the result for the
# scripts run outside make. Paths are from the top of the tree.
# BOARD_* variables from the environment are dropped first: a make that
# built another board exports that board's values to its children.

$(foreach v,$(filter BOARD_%,$(.VARIABLES)),$(if $(filter environment%,$(origin $(v))),$(eval undefine $(v))))
include $(board_mk)
ifeq ($(wildcard board/common/arch-$(BOARD_ARCH).mk),)
$(error $(board_mk): BOARD_ARCH '$(BOARD_ARCH)' has no board/common/arch-$(BOARD_ARCH).mk)
endif
include board/common/arch-$(BOARD_ARCH).mk
include board/common/defaults.mk
