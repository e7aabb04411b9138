package cranelift

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"time"
)

// IndexURL is the crates.io sparse index entry of cranelift-codegen, whose
// releases are Cranelift's (every cranelift-* crate is published with the
// same version).
const IndexURL = "https://index.crates.io/cr/an/cranelift-codegen"

// registryTTL is how long a fetched index is trusted: "latest" is asked
// of the registry at most once a day.
const registryTTL = 24 * time.Hour

// A ReleaseInfo is one published Cranelift.
type ReleaseInfo struct {
	Version     string
	RustVersion string // the rust-version it declares: the oldest rustc that builds it
	Yanked      bool
}

// Prerelease says whether it is a release candidate.
func (r ReleaseInfo) Prerelease() bool {
	v, err := ParseSemver(r.Version)
	return err != nil || v.Pre != ""
}

// A Registry answers which Cranelift releases exist, from crates.io's
// index, cached on disk.
type Registry struct {
	// Cache is the file holding the index as last fetched.
	Cache string
	// URL is the index entry; IndexURL when empty.
	URL string
	// Now is the clock; time.Now when nil.
	Now func() time.Time
}

// Releases lists every release, oldest first. The index is fetched when
// the cached copy is older than a day; a registry that cannot be reached
// leaves the cached copy in use, however old, and fails only without one.
func (r *Registry) Releases(ctx context.Context) ([]ReleaseInfo, error) {
	now := time.Now
	if r.Now != nil {
		now = r.Now
	}
	data, err := os.ReadFile(r.Cache)
	fresh := false
	if err == nil {
		if st, serr := os.Stat(r.Cache); serr == nil && now().Sub(st.ModTime()) < registryTTL {
			fresh = true
		}
	}
	if !fresh {
		fetched, ferr := r.fetch(ctx)
		switch {
		case ferr == nil:
			data = fetched
			if err := writeFileAtomic(r.Cache, data); err != nil {
				return nil, err
			}
		case data == nil:
			return nil, fmt.Errorf("the list of Cranelift releases: %w", ferr)
		}
	}
	return parseIndex(data)
}

func (r *Registry) fetch(ctx context.Context) ([]byte, error) {
	url := r.URL
	if url == "" {
		url = IndexURL
	}
	ctx, cancel := context.WithTimeout(ctx, 60*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return nil, err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("%s: %s", url, resp.Status)
	}
	return io.ReadAll(io.LimitReader(resp.Body, 64<<20))
}

// parseIndex reads the sparse index format: one JSON object per line.
func parseIndex(data []byte) ([]ReleaseInfo, error) {
	var out []ReleaseInfo
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 16<<20)
	for line := 1; sc.Scan(); line++ {
		if len(bytes.TrimSpace(sc.Bytes())) == 0 {
			continue
		}
		var e struct {
			Vers        string `json:"vers"`
			RustVersion string `json:"rust_version"`
			Yanked      bool   `json:"yanked"`
		}
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			return nil, fmt.Errorf("crates.io index line %d: %w", line, err)
		}
		out = append(out, ReleaseInfo{Version: e.Vers, RustVersion: e.RustVersion, Yanked: e.Yanked})
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	slices.SortFunc(out, func(a, b ReleaseInfo) int { return CompareVersions(a.Version, b.Version) })
	return out, nil
}

// Find returns the release of version v.
func Find(releases []ReleaseInfo, v string) (ReleaseInfo, bool) {
	for _, r := range releases {
		if r.Version == v {
			return r, true
		}
	}
	return ReleaseInfo{}, false
}

// Minors lists the newest patch release of every minor version from
// first (0.120) on, oldest first: the columns of the findings matrix.
// Release candidates and yanked releases are left out.
func Minors(releases []ReleaseInfo, first string) []ReleaseInfo {
	from, err := ParseSemver(first)
	if err != nil {
		return nil
	}
	var out []ReleaseInfo
	for _, r := range releases {
		v, err := ParseSemver(r.Version)
		if err != nil || r.Yanked || v.Pre != "" || v.Compare(from) < 0 {
			continue
		}
		if n := len(out); n > 0 {
			last, _ := ParseSemver(out[n-1].Version)
			if last.Major == v.Major && last.Minor == v.Minor {
				out[n-1] = r
				continue
			}
		}
		out = append(out, r)
	}
	return out
}

// writeFileAtomic writes data to path through a temporary file beside
// it, so that a reader never sees half of it.
func writeFileAtomic(path string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return err
	}
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return err
	}
	if err := tmp.Close(); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	return os.Rename(tmp.Name(), path)
}
