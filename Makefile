# Top-level convenience targets. The plugin itself is built with cargo.
.PHONY: bench bench-check
bench:
	$(MAKE) -C bench run
bench-check:
	$(MAKE) -C bench check
