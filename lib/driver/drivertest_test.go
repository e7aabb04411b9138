package driver_test

import (
	"cliff/lib/driver"
	"cliff/lib/driver/drivertest"
)

func init() { driver.DriverPath = drivertest.Path }
