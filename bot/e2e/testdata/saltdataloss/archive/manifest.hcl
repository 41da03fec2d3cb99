# A test blueprint for the data-loss tests of the bot on a real Salt master: an archive whose
# data directory under --root the blueprint marks as holding data, and a --purge that removes
# it. Salt part only. Not shipped in the binary.
service "archive" {
  description = "a data directory on the minion (Salt data-loss tests)"

  flag "root" {
    type        = path
    default     = "/srv/archive"
    pattern     = "(/[A-Za-z0-9._-]+)+"
    description = "directory the archive lives in"
  }
  flag "purge" {
    type        = bool
    description = "remove the archive's data"
  }

  salt {
    state      = "salt/local.sls"
    holds_data = ["${flag.root}/data"]
    pillar = {
      root  = flag.root
      purge = flag.purge
    }
  }
}
