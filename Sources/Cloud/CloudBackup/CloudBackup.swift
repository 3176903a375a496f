// The device side of iCloud backup.
