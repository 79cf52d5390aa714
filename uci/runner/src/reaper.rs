//! The operating-system side of ending engines: process groups, and on Linux the orphans they leave.
//!
//! An engine runs in a process group of its own, killed whole with the
//! engine. A process that leaves the group (`setsid`, a daemon's double fork)
//! is out of its reach; on Linux the runner is made a child subreaper
//! (`PR_SET_CHILD_SUBREAPER`), so such a process, once its parent is gone,
//! becomes the runner's own child, where it can be found and killed. On
//! other systems only the group is killed.

/// Makes this process the parent of every orphan below it (Linux), so that
/// processes the engines detached can still be killed; elsewhere nothing.
pub fn adopt_orphans() {
    #[cfg(target_os = "linux")]
    {
        // SAFETY: prctl(2) PR_SET_CHILD_SUBREAPER sets one flag of this
        // process; it reads and writes no memory of ours.
        let r = unsafe { libc::prctl(libc::PR_SET_CHILD_SUBREAPER, 1 as libc::c_ulong) };
        if r != 0 {
            log::warn!(
                "cannot adopt the engines' orphans ({}): a process an engine detached with setsid may outlive the match",
                std::io::Error::last_os_error()
            );
        }
    }
}

/// Sends SIGKILL to the process `pid`.
pub fn kill(pid: i32) {
    #[cfg(unix)]
    // SAFETY: kill(2) signals a process; it touches no memory of ours.
    unsafe {
        libc::kill(pid, libc::SIGKILL);
    }
    #[cfg(not(unix))]
    let _ = pid;
}

/// Kills the process group `pid` leads: the engine and whatever it started
/// that stayed in its group.
pub fn kill_group(pid: i32) {
    #[cfg(unix)]
    // SAFETY: kill(2) with a negative pid signals the process group; it
    // touches no memory of ours.
    unsafe {
        libc::kill(-pid, libc::SIGKILL);
    }
    #[cfg(not(unix))]
    let _ = pid;
}

/// Whether no process (not even an unreaped one) is left in the group `pid`.
pub fn group_gone(pid: i32) -> bool {
    #[cfg(unix)]
    {
        // SAFETY: kill(2) with signal 0 only checks that the group exists.
        let r = unsafe { libc::kill(-pid, 0) };
        r != 0 && std::io::Error::last_os_error().raw_os_error() == Some(libc::ESRCH)
    }
    #[cfg(not(unix))]
    {
        let _ = pid;
        true
    }
}

/// Reaps the child `pid` if it has ended; true once it is reaped or is not
/// (or no longer) a child of this process.
pub fn try_reap(pid: i32) -> bool {
    #[cfg(unix)]
    {
        let mut status = 0;
        // SAFETY: waitpid(2) on one pid, WNOHANG, writing only `status`.
        let r = unsafe { libc::waitpid(pid, &mut status, libc::WNOHANG) };
        r != 0
    }
    #[cfg(not(unix))]
    {
        let _ = pid;
        true
    }
}

/// The children of this process but those in `except` (Linux: read from
/// /proc; elsewhere none are known). A child stays one until it is reaped,
/// so its pid cannot be reused meanwhile and is safe to signal.
pub fn children_except(except: &[i32]) -> Vec<i32> {
    #[cfg(target_os = "linux")]
    {
        let me = std::process::id() as i32;
        let Ok(dir) = std::fs::read_dir("/proc") else {
            return Vec::new();
        };
        dir.filter_map(|e| e.ok()?.file_name().to_str()?.parse::<i32>().ok())
            .filter(|pid| !except.contains(pid))
            .filter(|pid| {
                std::fs::read_to_string(format!("/proc/{pid}/stat"))
                    .ok()
                    .and_then(|s| stat_parent(&s))
                    == Some(me)
            })
            .collect()
    }
    #[cfg(not(target_os = "linux"))]
    {
        let _ = except;
        Vec::new()
    }
}

/// The parent pid in the text of /proc/PID/stat: the second field after the
/// command name, which is in parentheses and may itself hold `)` and spaces.
#[cfg_attr(not(target_os = "linux"), allow(dead_code))]
fn stat_parent(stat: &str) -> Option<i32> {
    let rest = &stat[stat.rfind(')')? + 1..];
    rest.split_whitespace().nth(1)?.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_parent_is_read_after_the_last_parenthesis_of_the_name() {
        assert_eq!(stat_parent("4242 (sleep) S 17 4242 17 0 -1"), Some(17));
        assert_eq!(stat_parent("4242 (a) b) (c) Z 9 1 1"), Some(9));
        assert_eq!(stat_parent("4242 (sleep"), None);
        assert_eq!(stat_parent(""), None);
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn a_child_is_listed_killed_and_reaped() {
        let mut child = std::process::Command::new("sleep")
            .arg("100")
            .spawn()
            .unwrap();
        let pid = child.id() as i32;
        assert!(children_except(&[]).contains(&pid));
        assert!(!children_except(&[pid]).contains(&pid));
        kill(pid);
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
        while !try_reap(pid) {
            assert!(std::time::Instant::now() < deadline, "{pid} not reaped");
            std::thread::sleep(std::time::Duration::from_millis(1));
        }
        assert!(!children_except(&[]).contains(&pid));
        // Reaped here already: the handle has nothing left to wait for.
        let _ = child.wait();
    }
}
