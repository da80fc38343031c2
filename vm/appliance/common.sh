# Test VM only: what the appliance's in-VM scripts share. Sourced; $payload is the payload disk.
export DEBIAN_FRONTEND=noninteractive
report() { echo "@@ $1"; }
exists() { if [[ -e $1 || -L $1 ]]; then echo yes; else echo no; fi; }
prop() { systemctl show -p "$1" --value tictactoe.service; }
wait_active() {  # until active with more than $1 restarts, or 120 s
  for _ in $(seq 1 240); do
    if [[ $(systemctl is-active tictactoe.service) == active && $(prop NRestarts) -gt $1 ]]; then return 0; fi
    sleep 0.5
  done
  return 1
}
# Offline: apt sees only the folder of .debs that came with the test.
offline_apt() {
  mkdir -p /etc/apt/disabled
  mv /etc/apt/sources.list /etc/apt/sources.list.d/* /etc/apt/disabled/ 2>/dev/null
  echo "deb [trusted=yes] file:$payload/debs ./" > /etc/apt/sources.list.d/test-debs.list
  apt-get update -q >/tmp/apt-update.log 2>&1
}
