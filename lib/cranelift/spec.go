package cranelift

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
)

// A Spec names one Cranelift, as --cranelift and $CLIFF_CRANELIFT take it.
type Spec struct {
	Kind SpecKind
	// Version is a release's version (Release), as crates.io spells it.
	Version string
	// Path is a checkout's directory, absolute (Checkout).
	Path string
}

// SpecKind says where a Spec's Cranelift comes from.
type SpecKind int

const (
	// Default is the driver the tools were built with (bin/cliff-driver,
	// from driver/Cargo.lock): what runs when no --cranelift is given.
	Default SpecKind = iota
	// Release is a version published on crates.io.
	Release
	// Latest is the newest release an installed toolchain can build.
	Latest
	// Checkout is a wasmtime checkout's cranelift/ crates.
	Checkout
)

var releasePattern = regexp.MustCompile(`^[0-9]+\.[0-9]+\.[0-9]+(-[0-9A-Za-z.-]+)?$`)

// ParseSpec reads one SPEC: a version (0.137.1), "latest", "default", or
// a path to a wasmtime checkout (anything with a slash, or an existing
// directory).
func ParseSpec(s string) (Spec, error) {
	s = strings.TrimSpace(s)
	switch {
	case s == "":
		return Spec{}, fmt.Errorf("empty Cranelift spec: want a version (0.137.1), latest, or a wasmtime checkout's path")
	case s == "default":
		return Spec{Kind: Default}, nil
	case s == "latest":
		return Spec{Kind: Latest}, nil
	case releasePattern.MatchString(s):
		return Spec{Kind: Release, Version: s}, nil
	}
	if st, err := os.Stat(s); err == nil && st.IsDir() || strings.ContainsRune(s, os.PathSeparator) {
		abs, err := filepath.Abs(s)
		if err != nil {
			return Spec{}, fmt.Errorf("Cranelift checkout %s: %w", s, err)
		}
		return Spec{Kind: Checkout, Path: abs}, nil
	}
	return Spec{}, fmt.Errorf("Cranelift %q: want a version (0.137.1), latest, default, or a wasmtime checkout's path", s)
}

// ParseSpecs reads --cranelift's values: specs separated by commas, or
// repeated; each once, in the order given.
func ParseSpecs(values []string) ([]Spec, error) {
	var specs []Spec
	seen := map[Spec]bool{}
	for _, v := range values {
		for _, s := range strings.Split(v, ",") {
			spec, err := ParseSpec(s)
			if err != nil {
				return nil, err
			}
			if !seen[spec] {
				seen[spec] = true
				specs = append(specs, spec)
			}
		}
	}
	return specs, nil
}

func (s Spec) String() string {
	switch s.Kind {
	case Release:
		return s.Version
	case Latest:
		return "latest"
	case Checkout:
		return s.Path
	}
	return "default"
}
