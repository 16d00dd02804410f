# Build, install and uninstall Agent like any desktop application:
#   make install                  (into ~/.local: it then shows in the application menu)
#   make install PREFIX=/usr/local
#   make uninstall PREFIX=…
#   make check-data               (validate the desktop file and AppStream metainfo)
# The Swift runtime is linked statically, so installed binaries do not depend on the toolchain.

APP_ID  := io.github.agentdesktop.Agent
PREFIX  ?= $(HOME)/.local
BINDIR  := $(PREFIX)/bin
DATADIR := $(PREFIX)/share
BUILD   ?= release
SWIFT_FLAGS ?= --static-swift-stdlib
PRODUCTS := .build/$(BUILD)/agent .build/$(BUILD)/agent-cli

.PHONY: all build install uninstall check-data

all: build

build:
	swift build -c $(BUILD) $(SWIFT_FLAGS) --product agent
	swift build -c $(BUILD) $(SWIFT_FLAGS) --product agent-cli

install: build
	install -Dm755 .build/$(BUILD)/agent "$(DESTDIR)$(BINDIR)/agent"
	install -Dm755 .build/$(BUILD)/agent-cli "$(DESTDIR)$(BINDIR)/agent-cli"
	install -Dm755 scripts/install-runtime "$(DESTDIR)$(BINDIR)/agent-install-runtime"
	install -d "$(DESTDIR)$(DATADIR)/applications"
	sed 's|^Exec=agent|Exec=$(BINDIR)/agent|' data/$(APP_ID).desktop > "$(DESTDIR)$(DATADIR)/applications/$(APP_ID).desktop"
	install -Dm644 data/$(APP_ID).metainfo.xml "$(DESTDIR)$(DATADIR)/metainfo/$(APP_ID).metainfo.xml"
	install -Dm644 data/icons/hicolor/scalable/apps/$(APP_ID).svg "$(DESTDIR)$(DATADIR)/icons/hicolor/scalable/apps/$(APP_ID).svg"
	install -Dm644 data/icons/hicolor/symbolic/apps/$(APP_ID)-symbolic.svg "$(DESTDIR)$(DATADIR)/icons/hicolor/symbolic/apps/$(APP_ID)-symbolic.svg"
	install -Dm644 Resources/style.css "$(DESTDIR)$(DATADIR)/$(APP_ID)/style.css"
	install -Dm644 Resources/templates/gemma3-tools.jinja "$(DESTDIR)$(DATADIR)/$(APP_ID)/templates/gemma3-tools.jinja"
	-command -v gtk4-update-icon-cache >/dev/null && gtk4-update-icon-cache -qtf "$(DESTDIR)$(DATADIR)/icons/hicolor"
	-command -v update-desktop-database >/dev/null && update-desktop-database -q "$(DESTDIR)$(DATADIR)/applications"

uninstall:
	rm -f "$(DESTDIR)$(BINDIR)/agent" "$(DESTDIR)$(BINDIR)/agent-cli" "$(DESTDIR)$(BINDIR)/agent-install-runtime"
	rm -f "$(DESTDIR)$(DATADIR)/applications/$(APP_ID).desktop"
	rm -f "$(DESTDIR)$(DATADIR)/metainfo/$(APP_ID).metainfo.xml"
	rm -f "$(DESTDIR)$(DATADIR)/icons/hicolor/scalable/apps/$(APP_ID).svg"
	rm -f "$(DESTDIR)$(DATADIR)/icons/hicolor/symbolic/apps/$(APP_ID)-symbolic.svg"
	rm -rf "$(DESTDIR)$(DATADIR)/$(APP_ID)"
	-command -v update-desktop-database >/dev/null && update-desktop-database -q "$(DESTDIR)$(DATADIR)/applications"

check-data:
	desktop-file-validate data/$(APP_ID).desktop
	appstreamcli validate --no-net data/$(APP_ID).metainfo.xml
