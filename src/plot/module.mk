# triage plot: SQLite for reading records (loaded at first use,
# src/util/dl_sqlite.c); uPlot and the page's own script and style embedded
# into the binary as byte arrays (od: no extra tool).

PLOT_ASSETS := third_party/uplot/uPlot.iife.min.js third_party/uplot/uPlot.min.css \
	third_party/uplot/LICENSE src/plot/page.js src/plot/page.css

# One "static const unsigned char NAME[] = {...};" per asset, NAME from the file name.
$(OUTPUT)/gen/plot_assets.h: $(PLOT_ASSETS) third_party/uplot/VERSION src/plot/module.mk
	$(call msg,GEN,$@)
	$(Q)mkdir -p $(@D)
	$(Q){ echo "#define UPLOT_VERSION \"$$(cat third_party/uplot/VERSION)\""; \
	for f in $(PLOT_ASSETS); do \
		n=$$(basename $$f | tr -c 'A-Za-z0-9\n' '_'); \
		echo "static const unsigned char asset_$$n[] = {"; \
		od -An -v -tx1 $$f | sed 's/ \([0-9a-f][0-9a-f]\)/0x\1,/g'; \
		echo "};"; \
	done; } > $@.tmp && mv $@.tmp $@

$(OUTPUT)/src/plot/page.o: $(OUTPUT)/gen/plot_assets.h
