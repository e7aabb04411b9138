package engine

import (
	"context"
	"errors"
	"io"

	driversrc "cliff/driver"
	"cliff/lib/cranelift"
	"cliff/lib/driver"
)

// ChooseCranelift sets o's drivers from --driver PATH and --cranelift
// SPECs (lib/cranelift), building what the cache lacks (cargo's progress
// to log): no SPEC is the driver at PATH, or driver.Find's; one SPEC is
// its driver, the results unlabelled as with the default; several make
// the version an axis, each configuration run on each and labelled
// (Config.Cranelift). It returns the labels, for ConfigSpec.Cranelifts.
func (o *Options) ChooseCranelift(ctx context.Context, driverPath string, specs []string, log io.Writer) ([]string, error) {
	parsed, err := cranelift.ParseSpecs(specs)
	if err != nil {
		return nil, err
	}
	if len(parsed) > 0 && driverPath != "" {
		return nil, errors.New("--driver and --cranelift both choose the driver: give one")
	}
	if len(parsed) == 0 {
		if driverPath == "" {
			if driverPath, err = driver.Find(); err != nil {
				return nil, err
			}
		}
		o.DriverPath = driverPath
		return nil, nil
	}
	b, err := NewBuilder(log)
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

// NewBuilder is the driver builder of cliff's tools: the user's cache,
// the driver source the tool was built with, make's driver as the
// default.
func NewBuilder(log io.Writer) (*cranelift.Builder, error) {
	cache, err := cranelift.DefaultCache()
	if err != nil {
		return nil, err
	}
	return &cranelift.Builder{Cache: cache, Source: driversrc.Source, DefaultDriver: driver.Find, Log: log}, nil
}
