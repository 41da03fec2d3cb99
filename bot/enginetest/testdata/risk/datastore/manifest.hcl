# A service that is one data volume, for the risk tests: changing its format replaces the
# volume, which loses its data. Not shipped in the binary.
service "datastore" {
  description = "a volume that holds data"

  flag "format" {
    type        = enum
    values      = ["xfs", "ext4"]
    default     = "xfs"
    description = "filesystem of the volume; changing it replaces the volume"
  }

  terraform {
    module     = "terraform"
    holds_data = ["eoslab_volume.data"]
    variables = {
      name   = service.name
      format = flag.format
    }
  }
}
