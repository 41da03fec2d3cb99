operation "resize" "lvm" {
  description = "grow a logical volume and the filesystem on it"

  arg "name" {
    type        = string
    pattern     = "[A-Za-z0-9+_][A-Za-z0-9+_.-]{0,126}"   # an LVM name; never . or .., no /
    description = "logical volume, like data-nextcloud"
  }
  arg "size" {
    type        = size
    description = "new size, or +N to grow by N"
  }

  flag "vg" {
    type        = string
    default     = "vg0"
    pattern     = "[A-Za-z0-9+_][A-Za-z0-9+_.-]{0,126}"   # an LVM name; never . or .., no /
    description = "volume group holding the logical volume"
  }

  salt {
    state = "salt/local.sls"
    variant "production" {
      state = "salt/resize.sls"
    }
    pillar = {
      lv_name = arg.name
      vg_name = flag.vg
      size    = arg.size
    }
  }
}
