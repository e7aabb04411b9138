package history

import (
	"context"
	"io"

	"cliff/lib/cranelift"
)

// PinCranelift turns a Cranelift SPEC (cliff-run's --cranelift) into what
// a run records and its campaign runs, fixed for the run's life: latest
// becomes the release it is today, so that a run resumed after a new
// release still tests what it began with. It returns the SPEC for the
// campaign ("" for the default driver) and the version results name
// (a checkout's label with its commit). A checkout's driver is built
// here when the cache lacks it: its label needs the build's view of the
// tree.
func PinCranelift(ctx context.Context, spec string, log io.Writer) (pinned, version string, err error) {
	if spec == "" {
		spec = "default"
	}
	s, err := cranelift.ParseSpec(spec)
	if err != nil {
		return "", "", err
	}
	b, err := cranelift.NewBuilder(log)
	if err != nil {
		return "", "", err
	}
	if s, err = b.Resolve(ctx, s); err != nil {
		return "", "", err
	}
	switch s.Kind {
	case cranelift.Release:
		return s.Version, s.Version, nil
	case cranelift.Default:
		build, err := b.Ensure(ctx, s)
		if err != nil {
			return "", "", err
		}
		return "", build.Label, nil
	}
	build, err := b.Ensure(ctx, s)
	if err != nil {
		return "", "", err
	}
	return s.String(), build.Label, nil
}
