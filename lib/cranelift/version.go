package cranelift

import (
	"fmt"
	"strconv"
	"strings"
)

// A Semver is a version's numbers; Pre is its pre-release part
// ("rc.1", "nightly"), empty for a release.
type Semver struct {
	Major, Minor, Patch int
	Pre                 string
}

// ParseSemver reads "1.97.0", "1.97" (patch 0), "0.137.0-rc.1" and
// "1.97.0-nightly".
func ParseSemver(s string) (Semver, error) {
	var v Semver
	core, pre, _ := strings.Cut(strings.TrimSpace(s), "-")
	v.Pre = pre
	parts := strings.Split(core, ".")
	if len(parts) < 2 || len(parts) > 3 {
		return v, fmt.Errorf("version %q: want MAJOR.MINOR[.PATCH]", s)
	}
	nums := []*int{&v.Major, &v.Minor, &v.Patch}
	for i, p := range parts {
		n, err := strconv.Atoi(p)
		if err != nil || n < 0 {
			return v, fmt.Errorf("version %q: %q is not a number", s, p)
		}
		*nums[i] = n
	}
	return v, nil
}

// Compare orders versions by their numbers, a pre-release before its
// release; two pre-releases of one version by their text.
func (v Semver) Compare(w Semver) int {
	for _, d := range [3]int{v.Major - w.Major, v.Minor - w.Minor, v.Patch - w.Patch} {
		if d != 0 {
			return d
		}
	}
	switch {
	case v.Pre == w.Pre:
		return 0
	case v.Pre == "":
		return 1
	case w.Pre == "":
		return -1
	}
	return strings.Compare(v.Pre, w.Pre)
}

// Satisfies says whether a toolchain of version v builds a crate whose
// rust-version is need. As cargo does, a nightly or beta of 1.97.0
// counts as 1.97.0.
func (v Semver) Satisfies(need Semver) bool {
	v.Pre, need.Pre = "", ""
	return v.Compare(need) >= 0
}

func (v Semver) String() string {
	s := fmt.Sprintf("%d.%d.%d", v.Major, v.Minor, v.Patch)
	if v.Pre != "" {
		s += "-" + v.Pre
	}
	return s
}

// CompareVersions orders two version strings; one that does not parse
// sorts before any that does, and two such by their text.
func CompareVersions(a, b string) int {
	va, ea := ParseSemver(a)
	vb, eb := ParseSemver(b)
	switch {
	case ea != nil && eb != nil:
		return strings.Compare(a, b)
	case ea != nil:
		return -1
	case eb != nil:
		return 1
	}
	return va.Compare(vb)
}
