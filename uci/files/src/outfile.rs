//! Output files written safely: a file Mach did not write is replaced only
//! with `--force`, what is not a regular file (a directory, a device, a
//! pipe) never; the new content goes to a unique temporary in the same
//! directory, renamed over the target once whole and removed on any
//! failure; two outputs of one command never share a path.

use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};

/// Refuses an output path before any work: a path whose directory does not
/// exist, anything but a regular file, or an existing file unless `force`
/// or `ours` recognises it as Mach's own (`None`: no content tells, as for a
/// Polyglot book). `flag` names the option in the messages (`--html`, `--out`).
pub fn check(
    path: &Path,
    flag: &str,
    force: bool,
    ours: Option<fn(&Path) -> bool>,
) -> Result<(), String> {
    match std::fs::metadata(path) {
        Ok(m) if !m.is_file() => Err(format!(
            "{flag} {} is not a regular file (a directory, a device or a pipe): not replaced",
            path.display()
        )),
        Ok(_) if !force && !ours.is_some_and(|ours| ours(path)) => Err(format!(
            "{flag} {} exists{}: not replaced (pass --force to replace it)",
            path.display(),
            if ours.is_some() {
                " and Mach did not write it"
            } else {
                ""
            }
        )),
        Ok(_) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            let dir = parent(path);
            if dir.is_dir() {
                Ok(())
            } else {
                Err(format!(
                    "cannot write {}: no directory {}",
                    path.display(),
                    dir.display()
                ))
            }
        }
        Err(e) => Err(format!("cannot write {}: {e}", path.display())),
    }
}

/// The directory `path` is in (`.` for a bare file name).
fn parent(path: &Path) -> &Path {
    match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    }
}

/// Writes `path` through a unique temporary file beside it (`write` fills
/// it), then renames it over `path`, so a reader never sees half a file
/// and a failure leaves nothing behind: the temporary is removed whatever
/// goes wrong, and `path` keeps what it had.
pub fn replace<T>(
    path: &Path,
    write: impl FnOnce(&mut File) -> std::io::Result<T>,
) -> Result<T, String> {
    let fail = |e: &dyn std::fmt::Display| format!("cannot write {}: {e}", path.display());
    let name = path.file_name().map_or_else(
        || "mach-output".into(),
        |n| n.to_string_lossy().into_owned(),
    );
    let prefix = format!(".{name}.");
    let mut b = tempfile::Builder::new();
    b.prefix(&prefix).suffix(".tmp");
    // As a new file of the user's would be (less the umask), not 0600.
    #[cfg(unix)]
    b.permissions(std::os::unix::fs::PermissionsExt::from_mode(0o666));
    let mut tmp = b.tempfile_in(parent(path)).map_err(|e| fail(&e))?;
    let value = write(tmp.as_file_mut())
        .and_then(|v| tmp.as_file_mut().flush().map(|_| v))
        .map_err(|e| fail(&e))?;
    tmp.persist(path).map_err(|e| fail(&e.error))?;
    Ok(value)
}

/// The path as it will be opened: with its directory resolved (symbolic
/// links, `..`), so that two spellings of one file compare equal.
fn resolved(path: &Path) -> PathBuf {
    if let Ok(p) = path.canonicalize() {
        return p;
    }
    let dir = parent(path);
    let dir = dir.canonicalize().unwrap_or_else(|_| dir.to_path_buf());
    match path.file_name() {
        Some(n) => dir.join(n),
        None => dir,
    }
}

/// Whether `a` and `b` name the same file (existing or not).
pub fn same_file(a: &Path, b: &Path) -> bool {
    #[cfg(unix)]
    if let (Ok(x), Ok(y)) = (std::fs::metadata(a), std::fs::metadata(b)) {
        use std::os::unix::fs::MetadataExt;
        return x.dev() == y.dev() && x.ino() == y.ino();
    }
    resolved(a) == resolved(b)
}

/// Refuses two of a command's files (`(flag, path)`, outputs and the inputs
/// they could spoil) on one path: each output needs a file of its own.
pub fn distinct(files: &[(&str, Option<&Path>)]) -> Result<(), String> {
    let given: Vec<(&str, &Path)> = files
        .iter()
        .filter_map(|(flag, p)| p.map(|p| (*flag, p)))
        .collect();
    for (i, (fa, a)) in given.iter().enumerate() {
        for (fb, b) in &given[i + 1..] {
            if same_file(a, b) {
                return Err(format!(
                    "{fa} and {fb} name the same file {}: give each its own file",
                    b.display()
                ));
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ours(p: &Path) -> bool {
        std::fs::read(p).is_ok_and(|b| b.starts_with(b"mach"))
    }

    #[test]
    fn a_users_file_needs_force_mach_s_own_does_not_and_a_directory_is_never_replaced() {
        let dir = tempfile::tempdir().unwrap();
        let user = dir.path().join("notes.html");
        std::fs::write(&user, "mine").unwrap();
        let e = check(&user, "--html", false, Some(ours)).unwrap_err();
        assert!(
            e.contains("Mach did not write it") && e.contains("--force"),
            "{e}"
        );
        assert!(check(&user, "--html", true, Some(ours)).is_ok());
        let e = check(&user, "--out", false, None).unwrap_err();
        assert!(
            e.ends_with("exists: not replaced (pass --force to replace it)"),
            "{e}"
        );
        let own = dir.path().join("own.html");
        std::fs::write(&own, "mach page").unwrap();
        assert!(check(&own, "--html", false, Some(ours)).is_ok());
        assert!(check(&dir.path().join("new.html"), "--html", false, Some(ours)).is_ok());
        let e = check(dir.path(), "--out", true, None).unwrap_err();
        assert!(e.contains("not a regular file"), "{e}");
        let e = check(&dir.path().join("no/such.html"), "--html", false, None).unwrap_err();
        assert!(e.contains("no directory"), "{e}");
    }

    #[test]
    fn a_failed_write_keeps_the_old_file_and_leaves_no_temporary() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("page.html");
        std::fs::write(&out, "old").unwrap();
        let r: Result<(), String> = replace(&out, |f| {
            f.write_all(b"half")?;
            Err(std::io::Error::other("disk full"))
        });
        assert!(r.unwrap_err().contains("disk full"));
        assert_eq!(std::fs::read_to_string(&out).unwrap(), "old");
        replace(&out, |f| f.write_all(b"new")).unwrap();
        assert_eq!(std::fs::read_to_string(&out).unwrap(), "new");
        let names: Vec<_> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names, ["page.html"]);
    }

    #[test]
    fn two_spellings_of_one_file_are_the_same_file_existing_or_not() {
        let dir = tempfile::tempdir().unwrap();
        let a = dir.path().join("g.pgn");
        let b = dir.path().join(".").join("sub").join("..").join("g.pgn");
        std::fs::create_dir(dir.path().join("sub")).unwrap();
        assert!(same_file(&a, &b));
        std::fs::write(&a, "x").unwrap();
        assert!(same_file(&a, &b));
        assert!(!same_file(&a, &dir.path().join("h.pgn")));
        let e = distinct(&[
            ("--pgnout", Some(&a)),
            ("--log", None),
            ("--html", Some(&b)),
        ])
        .unwrap_err();
        assert!(e.contains("--pgnout and --html name the same file"), "{e}");
        assert!(distinct(&[("--pgnout", Some(&a)), ("--html", None)]).is_ok());
    }
}
