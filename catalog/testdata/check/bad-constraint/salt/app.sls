data-volume:
  test.nop:
    - name: {{ pillar["lv_size"] }}
