service "badconstraint" {
  description = "a check fixture: a volume whose bounds are the wrong way round"

  flag "storage" {
    type        = size
    default     = "100G"
    min         = "2T"
    max         = "500G"
    description = "size of the data volume"
  }

  salt {
    state  = "salt/app.sls"
    pillar = { lv_size = flag.storage }
  }
}
