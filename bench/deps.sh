# bench/deps.sh -- sourced by run.sh and ci-check.sh: install ADOL-C when
# missing (apt-get update only when something must be installed). Never
# fails: without ADOL-C the suite skips its columns.
if [ ! -f /usr/include/adolc/adolc.h ]; then
  echo "ADOL-C missing: installing libadolc-dev"
  SUDO=""
  [ "$(id -u)" = 0 ] || SUDO="sudo -n"
  if ! { $SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq libadolc-dev; } >/tmp/bench-apt.log 2>&1; then
    echo "could not install libadolc-dev (see /tmp/bench-apt.log): ADOL-C parts are skipped"
  fi
fi
