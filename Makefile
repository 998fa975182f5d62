# Top-level convenience targets. The plugin itself is built with cargo.
.PHONY: bench bench-check plugin fortran-module install uninstall deb
bench:
	$(MAKE) -C bench run
bench-check:
	$(MAKE) -C bench check

# --- install (see docs/install.md) ------------------------------------------
# make install PREFIX=/opt/enzyme-rs [DESTDIR=/staging]
PREFIX ?= /usr/local
DESTDIR ?=
LLVM_SYS_160_PREFIX ?= /usr/lib/llvm-16
FLANG ?= flang-new-16
STRIP ?= strip
VERSION := $(shell sed -n 's/^version = "\(.*\)"/\1/p' Cargo.toml | head -1)
PLUGIN := target/release/libenzyme_rs.so
# The LLVM 22 build, when there is one (cargo build --release
# --no-default-features --features llvm22-1 --target-dir target/llvm22).
PLUGIN22 := target/llvm22/release/libenzyme_rs.so
WRAPPERS := enzyme-clang++ enzyme-flang enzyme-clang-22 enzyme-clang++-22
dest := $(DESTDIR)$(PREFIX)

plugin:
	LLVM_SYS_160_PREFIX=$(LLVM_SYS_160_PREFIX) cargo build --release

# The Fortran module compiled by flang-new-16 (module files are
# compiler-specific), for `enzyme-flang` and the install.
fortran-module:
	@if command -v $(FLANG) >/dev/null 2>&1; then \
	  mkdir -p target/fortran/flang-16 && \
	  $(FLANG) -c include/enzyme/enzyme.f90 -module-dir target/fortran/flang-16 \
	    -o target/fortran/flang-16/enzyme.o; \
	else echo "($(FLANG) not found: no prebuilt Fortran module)"; fi

install: plugin fortran-module
	install -d $(dest)/lib $(dest)/bin $(dest)/include/enzyme \
	  $(dest)/lib/cmake/EnzymeRS $(dest)/lib/pkgconfig $(dest)/share/doc/enzyme-rs
	install -m 644 $(PLUGIN) $(dest)/lib/libenzyme_rs.so
	if [ -f $(PLUGIN22) ]; then install -m 644 $(PLUGIN22) $(dest)/lib/libenzyme_rs-llvm22.so; fi
	# the source-attribute clang plugin, loaded by libenzyme_rs.so from beside it
	if [ -f target/release/libenzyme_rs_clang16.so ]; then \
	  install -m 644 target/release/libenzyme_rs_clang16.so $(dest)/lib/libenzyme_rs_clang16.so; fi
	if [ -f target/llvm22/release/libenzyme_rs_clang22.so ]; then \
	  install -m 644 target/llvm22/release/libenzyme_rs_clang22.so $(dest)/lib/libenzyme_rs_clang22.so; fi
	# (the release build keeps line tables for backtraces; the install does not)
	$(STRIP) --strip-debug $(dest)/lib/libenzyme_rs*.so
	# every header (enzyme.h, enzyme.hpp, <enzyme/enzyme>, bits/...) and enzyme.f90
	cd include/enzyme && find . -type f | while read -r f; do \
	  install -D -m 644 "$$f" "$(dest)/include/enzyme/$$f"; done
	if [ -f target/fortran/flang-16/enzyme.mod ]; then \
	  install -d $(dest)/lib/fortran/flang-16 && \
	  install -m 644 target/fortran/flang-16/enzyme.mod $(dest)/lib/fortran/flang-16/; fi
	install -m 755 bin/enzyme-clang $(dest)/bin/enzyme-clang
	for w in $(WRAPPERS); do ln -sf enzyme-clang $(dest)/bin/$$w; done
	install -m 644 cmake/EnzymeRSConfig.cmake $(dest)/lib/cmake/EnzymeRS/
	sed 's/@VERSION@/$(VERSION)/' cmake/EnzymeRSConfigVersion.cmake.in \
	  > $(dest)/lib/cmake/EnzymeRS/EnzymeRSConfigVersion.cmake
	sed 's/@VERSION@/$(VERSION)/' packaging/enzyme-rs.pc.in > $(dest)/lib/pkgconfig/enzyme-rs.pc
	if [ -f $(PLUGIN22) ]; then \
	  sed 's/@VERSION@/$(VERSION)/; s/libenzyme_rs.so/libenzyme_rs-llvm22.so/; s/use with clang-16/use with clang-22/; s/clang 16/clang 22/; s/clang-16 /clang-22 /; s/--cflags enzyme-rs/--cflags enzyme-rs-llvm22/; s/^Name: enzyme-rs/Name: enzyme-rs-llvm22/' \
	    packaging/enzyme-rs.pc.in > $(dest)/lib/pkgconfig/enzyme-rs-llvm22.pc; fi
	cp -r docs/. $(dest)/share/doc/enzyme-rs/
	install -m 644 README.md $(dest)/share/doc/enzyme-rs/

uninstall:
	rm -f $(dest)/lib/libenzyme_rs.so $(dest)/lib/libenzyme_rs-llvm22.so $(dest)/lib/libenzyme_rs_clang16.so $(dest)/lib/libenzyme_rs_clang22.so \
	  $(dest)/lib/pkgconfig/enzyme-rs.pc $(dest)/lib/pkgconfig/enzyme-rs-llvm22.pc $(dest)/bin/enzyme-clang \
	  $(addprefix $(dest)/bin/,$(WRAPPERS))
	rm -rf $(dest)/include/enzyme $(dest)/lib/cmake/EnzymeRS \
	  $(dest)/lib/fortran/flang-16/enzyme.mod $(dest)/share/doc/enzyme-rs

# The Debian package (packaging/build-deb.sh): target/debian/enzyme-rs_*.deb
deb:
	bash packaging/build-deb.sh
