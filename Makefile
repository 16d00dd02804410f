# Build, install and uninstall Agent like any desktop application:
#   make install                  (into ~/.local: it then shows in the application menu)
#   make install PREFIX=/usr/local
#   make uninstall PREFIX=…
#   make check-data               (validate the desktop file, AppStream metainfo and settings schema)
#   make schemas                  (compile the settings schema for runs from the build tree)
# The Swift runtime is linked statically, so installed binaries do not depend on the toolchain.

APP_ID  := io.github.agentdesktop.Agent
PREFIX  ?= $(HOME)/.local
BINDIR  := $(PREFIX)/bin
DATADIR := $(PREFIX)/share
BUILD   ?= release
SWIFT_FLAGS ?= --static-swift-stdlib
PRODUCTS := .build/$(BUILD)/agent .build/$(BUILD)/agent-cli
# The build tree's compiled schema: the executables look beside themselves for it (.build/schemas).
SCHEMA_DIR := .build/schemas

.PHONY: all build install uninstall check-data schemas

all: build

build: schemas
	swift build -c $(BUILD) $(SWIFT_FLAGS) --product agent
	swift build -c $(BUILD) $(SWIFT_FLAGS) --product agent-cli

schemas: $(SCHEMA_DIR)/gschemas.compiled

$(SCHEMA_DIR)/gschemas.compiled: data/$(APP_ID).gschema.xml
	mkdir -p $(SCHEMA_DIR)
	glib-compile-schemas --strict --targetdir=$(SCHEMA_DIR) data

install: build
	install -Dm755 .build/$(BUILD)/agent "$(DESTDIR)$(BINDIR)/agent"
	install -Dm755 .build/$(BUILD)/agent-cli "$(DESTDIR)$(BINDIR)/agent-cli"
	install -Dm755 scripts/install-runtime "$(DESTDIR)$(BINDIR)/agent-install-runtime"
	install -d "$(DESTDIR)$(DATADIR)/applications"
	sed 's|^Exec=agent|Exec=$(BINDIR)/agent|' data/$(APP_ID).desktop > "$(DESTDIR)$(DATADIR)/applications/$(APP_ID).desktop"
	install -Dm644 data/$(APP_ID).metainfo.xml "$(DESTDIR)$(DATADIR)/metainfo/$(APP_ID).metainfo.xml"
	install -Dm644 data/icons/hicolor/scalable/apps/$(APP_ID).svg "$(DESTDIR)$(DATADIR)/icons/hicolor/scalable/apps/$(APP_ID).svg"
	install -Dm644 data/icons/hicolor/symbolic/apps/$(APP_ID)-symbolic.svg "$(DESTDIR)$(DATADIR)/icons/hicolor/symbolic/apps/$(APP_ID)-symbolic.svg"
	install -Dm644 data/$(APP_ID).gschema.xml "$(DESTDIR)$(DATADIR)/glib-2.0/schemas/$(APP_ID).gschema.xml"
	glib-compile-schemas "$(DESTDIR)$(DATADIR)/glib-2.0/schemas"
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
	rm -f "$(DESTDIR)$(DATADIR)/glib-2.0/schemas/$(APP_ID).gschema.xml"
	if ls "$(DESTDIR)$(DATADIR)/glib-2.0/schemas/"*.gschema.xml >/dev/null 2>&1; then \
		glib-compile-schemas "$(DESTDIR)$(DATADIR)/glib-2.0/schemas"; \
	else rm -f "$(DESTDIR)$(DATADIR)/glib-2.0/schemas/gschemas.compiled"; fi
	rm -rf "$(DESTDIR)$(DATADIR)/$(APP_ID)"
	-command -v update-desktop-database >/dev/null && update-desktop-database -q "$(DESTDIR)$(DATADIR)/applications"

check-data:
	desktop-file-validate data/$(APP_ID).desktop
	glib-compile-schemas --strict --dry-run data
	appstreamcli validate --no-net data/$(APP_ID).metainfo.xml
