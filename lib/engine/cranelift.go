package engine

import (
	"context"
	"errors"
	"io"
	"os"

	"cliff/lib/cliapp"
	"cliff/lib/cranelift"
	"cliff/lib/driver"
)

// ChooseCranelift sets o's drivers from --driver PATH and --cranelift
// SPECs (lib/cranelift), building what the cache lacks (cargo's progress
// to log): no SPEC is the driver at PATH, or driver.Find's; one SPEC is
// its driver, the results unlabelled as with the default; several make
// the version an axis, each configuration run on each and labelled
// (Config.Cranelift). It returns the labels, for ConfigSpec.Cranelifts.
//
// Without --driver and --cranelift, $CLIFF_CRANELIFT gives the SPECs,
// unless $CLIFF_DRIVER names a driver.
func (o *Options) ChooseCranelift(ctx context.Context, driverPath string, specs []string, log io.Writer) ([]string, error) {
	if len(specs) == 0 && driverPath == "" && os.Getenv("CLIFF_DRIVER") == "" {
		if env := os.Getenv(cliapp.CraneliftEnv); env != "" {
			specs = []string{env}
		}
	}
	parsed, err := cranelift.ParseSpecs(specs)
	if err != nil {
		return nil, err
	}
	if len(parsed) > 0 && driverPath != "" {
		return nil, errors.New("--driver and --cranelift both choose the driver: give one")
	}
	if len(parsed) == 0 {
		if driverPath, err = driver.Resolve(driverPath); err != nil {
			return nil, err
		}
		o.DriverPath = driverPath
		return nil, nil
	}
	b, err := cranelift.NewBuilder(log)
	if err != nil {
		return nil, err
	}
	builds, err := cranelift.Drivers(ctx, b, parsed)
	if err != nil {
		return nil, err
	}
	if len(builds) == 1 {
		o.DriverPath = builds[0].Driver
		return nil, nil
	}
	var labels []string
	for _, b := range builds {
		o.Cranelifts = append(o.Cranelifts, Cranelift{Label: b.Label, Driver: b.Driver})
		labels = append(labels, b.Label)
	}
	return labels, nil
}
