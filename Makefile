# Build, install and uninstall Agent like any desktop application:
#   make install                  (into ~/.local: it then shows in the application menu)
#   make install PREFIX=/usr/local
#   make uninstall PREFIX=…
#   make deb                      (agent_VERSION_amd64.deb of what make install installs: scripts/make-deb)
#   make check-data               (validate the desktop file, AppStream metainfo and settings schema)
#   make schemas icons locale     (the compiled settings schema, the icon's PNG sizes and the
#                                  compiled translations, for runs from the build tree)
#   make pot                      (po/'s template regenerated from the sources: scripts/update-pot)
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
# The app's icons for runs from the build tree, as installed: the SVGs, the icon drawn at
# fixed sizes (GTK then reads a PNG for the window icon and the empty chat's page instead of
# loading librsvg to draw the SVG: 6 MB and milliseconds at start) and an icon cache (GTK
# otherwise lists every folder of the theme).
ICON_DIR   := .build/share/icons/hicolor
ICON_SIZES := 16 32 48 64 128
ICON_PNGS  := $(foreach size,$(ICON_SIZES),$(ICON_DIR)/$(size)x$(size)/apps/$(APP_ID).png)
ICON_SVGS  := $(ICON_DIR)/scalable/apps/$(APP_ID).svg $(ICON_DIR)/symbolic/apps/$(APP_ID)-symbolic.svg
ICON_CACHE := $(firstword $(shell which gtk4-update-icon-cache gtk-update-icon-cache 2>/dev/null))
# The translations (po/<lang>.po) compiled where the executables look for them beside themselves
# (.build/locale), and the desktop file and metainfo with their translations merged in.
LINGUAS    := $(shell cat po/LINGUAS)
LOCALE_DIR := .build/locale
MO_FILES   := $(foreach lang,$(LINGUAS),$(LOCALE_DIR)/$(lang)/LC_MESSAGES/$(APP_ID).mo)
DATA_OUT   := .build/data
DESKTOP    := $(DATA_OUT)/$(APP_ID).desktop
METAINFO   := $(DATA_OUT)/$(APP_ID).metainfo.xml

.PHONY: all build install uninstall caches deb check-data schemas icons locale pot

all: build

build: schemas icons locale
	swift build -c $(BUILD) $(SWIFT_FLAGS) --product agent
	swift build -c $(BUILD) $(SWIFT_FLAGS) --product agent-cli

schemas: $(SCHEMA_DIR)/gschemas.compiled

$(SCHEMA_DIR)/gschemas.compiled: data/$(APP_ID).gschema.xml
	mkdir -p $(SCHEMA_DIR)
	glib-compile-schemas --strict --targetdir=$(SCHEMA_DIR) data

icons: $(ICON_DIR)/icon-theme.cache

locale: $(MO_FILES) $(DESKTOP) $(METAINFO)

$(LOCALE_DIR)/%/LC_MESSAGES/$(APP_ID).mo: po/%.po
	mkdir -p $(dir $@)
	msgfmt --check --output-file=$@ $<

$(DESKTOP): data/$(APP_ID).desktop $(wildcard po/*.po) po/LINGUAS
	mkdir -p $(DATA_OUT)
	msgfmt --desktop --template=$< -d po -o $@

$(METAINFO): data/$(APP_ID).metainfo.xml $(wildcard po/*.po) po/LINGUAS
	mkdir -p $(DATA_OUT)
	msgfmt --xml --template=$< -d po -o $@

pot:
	scripts/update-pot

$(ICON_DIR)/icon-theme.cache: $(ICON_PNGS) $(ICON_SVGS)
	$(if $(ICON_CACHE),$(ICON_CACHE) -qtf $(ICON_DIR),@echo "No gtk-update-icon-cache: GTK will list $(ICON_DIR) itself.")

$(ICON_DIR)/%/apps/$(APP_ID).png: data/icons/hicolor/scalable/apps/$(APP_ID).svg
	mkdir -p $(dir $@)
	rsvg-convert --width $(firstword $(subst x, ,$*)) --height $(firstword $(subst x, ,$*)) $< -o $@

$(ICON_DIR)/%.svg: data/icons/hicolor/%.svg
	install -Dm644 $< $@

install: build
	install -Dm755 .build/$(BUILD)/agent "$(DESTDIR)$(BINDIR)/agent"
	install -Dm755 .build/$(BUILD)/agent-cli "$(DESTDIR)$(BINDIR)/agent-cli"
	install -Dm755 scripts/install-runtime "$(DESTDIR)$(BINDIR)/agent-install-runtime"
	install -d "$(DESTDIR)$(DATADIR)/applications"
	sed 's|^Exec=agent|Exec=$(BINDIR)/agent|' $(DESKTOP) > "$(DESTDIR)$(DATADIR)/applications/$(APP_ID).desktop"
	install -Dm644 $(METAINFO) "$(DESTDIR)$(DATADIR)/metainfo/$(APP_ID).metainfo.xml"
	for lang in $(LINGUAS); do \
		install -Dm644 $(LOCALE_DIR)/$$lang/LC_MESSAGES/$(APP_ID).mo "$(DESTDIR)$(DATADIR)/locale/$$lang/LC_MESSAGES/$(APP_ID).mo"; \
	done
	install -Dm644 data/$(APP_ID).search-provider.ini "$(DESTDIR)$(DATADIR)/gnome-shell/search-providers/$(APP_ID).search-provider.ini"
	install -d "$(DESTDIR)$(DATADIR)/dbus-1/services"
	sed 's|^Exec=agent|Exec=$(BINDIR)/agent|' data/$(APP_ID).service > "$(DESTDIR)$(DATADIR)/dbus-1/services/$(APP_ID).service"
	install -Dm644 data/icons/hicolor/scalable/apps/$(APP_ID).svg "$(DESTDIR)$(DATADIR)/icons/hicolor/scalable/apps/$(APP_ID).svg"
	install -Dm644 data/icons/hicolor/symbolic/apps/$(APP_ID)-symbolic.svg "$(DESTDIR)$(DATADIR)/icons/hicolor/symbolic/apps/$(APP_ID)-symbolic.svg"
	for size in $(ICON_SIZES); do \
		install -Dm644 $(ICON_DIR)/$${size}x$${size}/apps/$(APP_ID).png "$(DESTDIR)$(DATADIR)/icons/hicolor/$${size}x$${size}/apps/$(APP_ID).png"; \
	done
	install -Dm644 data/$(APP_ID).gschema.xml "$(DESTDIR)$(DATADIR)/glib-2.0/schemas/$(APP_ID).gschema.xml"
	install -Dm644 Resources/style.css "$(DESTDIR)$(DATADIR)/$(APP_ID)/style.css"
	install -Dm644 Resources/templates/gemma3-tools.jinja "$(DESTDIR)$(DATADIR)/$(APP_ID)/templates/gemma3-tools.jinja"
	$(MAKE) --no-print-directory caches

# The desktop's caches for what was installed or removed: the compiled settings schemas,
# the icon cache, the desktop-file database. A staged install (DESTDIR, for a package)
# leaves them to the package manager.
caches:
ifeq ($(DESTDIR),)
	if ls "$(DATADIR)/glib-2.0/schemas/"*.gschema.xml >/dev/null 2>&1; then \
		glib-compile-schemas "$(DATADIR)/glib-2.0/schemas"; \
	else rm -f "$(DATADIR)/glib-2.0/schemas/gschemas.compiled"; fi
	$(if $(ICON_CACHE),if [ -d "$(DATADIR)/icons/hicolor" ]; then $(ICON_CACHE) -qtf "$(DATADIR)/icons/hicolor"; fi)
	-command -v update-desktop-database >/dev/null && update-desktop-database -q "$(DATADIR)/applications"
endif

uninstall:
	rm -f "$(DESTDIR)$(BINDIR)/agent" "$(DESTDIR)$(BINDIR)/agent-cli" "$(DESTDIR)$(BINDIR)/agent-install-runtime"
	rm -f "$(DESTDIR)$(DATADIR)/applications/$(APP_ID).desktop"
	rm -f "$(DESTDIR)$(DATADIR)/metainfo/$(APP_ID).metainfo.xml"
	for lang in $(LINGUAS); do rm -f "$(DESTDIR)$(DATADIR)/locale/$$lang/LC_MESSAGES/$(APP_ID).mo"; done
	rm -f "$(DESTDIR)$(DATADIR)/gnome-shell/search-providers/$(APP_ID).search-provider.ini"
	rm -f "$(DESTDIR)$(DATADIR)/dbus-1/services/$(APP_ID).service"
	rm -f "$(DESTDIR)$(DATADIR)/icons/hicolor/scalable/apps/$(APP_ID).svg"
	rm -f "$(DESTDIR)$(DATADIR)/icons/hicolor/symbolic/apps/$(APP_ID)-symbolic.svg"
	for size in $(ICON_SIZES); do rm -f "$(DESTDIR)$(DATADIR)/icons/hicolor/$${size}x$${size}/apps/$(APP_ID).png"; done
	rm -f "$(DESTDIR)$(DATADIR)/glib-2.0/schemas/$(APP_ID).gschema.xml"
	rm -rf "$(DESTDIR)$(DATADIR)/$(APP_ID)"
	$(MAKE) --no-print-directory caches

deb:
	scripts/make-deb

check-data: locale
	desktop-file-validate data/$(APP_ID).desktop $(DESKTOP)
	glib-compile-schemas --strict --dry-run data
	appstreamcli validate --no-net data/$(APP_ID).metainfo.xml $(METAINFO)
	scripts/check-translations
