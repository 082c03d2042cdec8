//! `strake package available` and `strake package install-manifest`: the consumer's
//! side of a package repository. Flags here, logic in `crate::package`.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, ValueEnum};

use crate::cli::registry_args::RegistryArgs;
use crate::cli::{print_error, runtime};
use crate::package::available::{report, to_json, to_text, to_yaml};
use crate::package::constraints::{Environment, Range, VersionSelection};
use crate::package::source::{Catalog, read_locations};

/// How `--constraint`, `--prereleases` and the cluster's versions select a version.
#[derive(Args, Debug, Clone, Default)]
pub struct SelectionArgs {
    /// Version constraint as a PackageInstall writes it (`0.25.0`, `>0.25.0`,
    /// `>=1.0.0 <2.0.0 || 3.x`): kapp-controller's language, no `~`/`^`.
    #[arg(long = "constraint", value_name = "C")]
    pub constraint: Option<String>,
    /// Admit prereleases: all of them, or only those with one of these dot-separated
    /// identifiers (comma-separated, e.g. `rc,beta`).
    #[arg(long = "prereleases", value_name = "IDS", num_args = 0..=1, default_missing_value = "")]
    pub prereleases: Option<String>,
    /// The cluster's Kubernetes version, for Packages with a kubernetesVersionSelection
    /// (without it that check passes).
    #[arg(long = "kubernetes-version", value_name = "V")]
    pub kubernetes_version: Option<String>,
    /// kapp-controller's version, for Packages with a kappControllerVersionSelection
    /// (without it that check passes).
    #[arg(long = "kapp-controller-version", value_name = "V")]
    pub kapp_controller_version: Option<String>,
}

impl SelectionArgs {
    /// The PackageInstall's `versionSelection`; a constraint that does not parse fails
    /// here, naming its offending part.
    pub fn selection(&self) -> anyhow::Result<VersionSelection> {
        if let Some(c) = self.constraint.as_deref().filter(|c| !c.is_empty()) {
            Range::parse(c).map_err(|e| {
                let hint = if c.contains('~') || c.contains('^') {
                    " (kapp-controller's constraints have no ~ or ^: write a range such as \
                     '>=1.2.0 <1.3.0' or a wildcard such as '1.2.x')"
                } else {
                    ""
                };
                anyhow::anyhow!("--constraint '{c}': {e}{hint}")
            })?;
        }
        Ok(VersionSelection {
            constraints: self.constraint.clone(),
            prereleases: self.prereleases.as_deref().map(|ids| {
                ids.split(',')
                    .map(str::trim)
                    .filter(|id| !id.is_empty())
                    .map(str::to_string)
                    .collect()
            }),
        })
    }

    pub fn environment(&self) -> Environment {
        Environment {
            kubernetes_version: self.kubernetes_version.clone(),
            kapp_controller_version: self.kapp_controller_version.clone(),
            ..Environment::default()
        }
    }
}

/// Where the Packages come from.
#[derive(Args, Debug, Clone)]
pub struct RepoArgs {
    /// A repository bundle (registry reference, oci:DIR[:TAG], tar:FILE[:TAG]), an
    /// extracted repository directory, or a YAML file of Packages; repeatable.
    #[arg(long = "repo", value_name = "LOCATION", required = true)]
    pub repo: Vec<String>,
    #[command(flatten)]
    pub registry: RegistryArgs,
}

impl RepoArgs {
    pub fn read(&self) -> anyhow::Result<Catalog> {
        let options = self.registry.options();
        let rt = runtime()?;
        Ok(rt.block_on(read_locations(&self.repo, &options))?)
    }
}

#[derive(Clone, Copy, Debug, Default, ValueEnum)]
pub enum OutputFormat {
    #[default]
    Text,
    Yaml,
    Json,
}

#[derive(Args, Debug)]
pub struct AvailableArgs {
    #[command(flatten)]
    pub repo: RepoArgs,
    /// Only this package (its refName).
    #[arg(long = "package", value_name = "REFNAME")]
    pub package: Option<String>,
    #[command(flatten)]
    pub selection: SelectionArgs,
    /// Output format; `json` is an array with one object per package whose `selected`
    /// is the version selected (null, with the reason in `error`, when none matches).
    #[arg(short = 'o', long = "output", value_enum, default_value_t = OutputFormat::Text)]
    pub output: OutputFormat,
}

/// Runs `strake package available`: exit status 1 when a constraint was given and some
/// listed package has no version meeting it.
pub fn run_available(args: &AvailableArgs) -> ExitCode {
    let result = (|| -> anyhow::Result<_> {
        let selection = args.selection.selection()?;
        let catalog = args.repo.read()?;
        let offered = report(
            &catalog,
            args.package.as_deref(),
            &selection,
            &args.selection.environment(),
        )?;
        let text = match args.output {
            OutputFormat::Text => to_text(&offered),
            OutputFormat::Yaml => to_yaml(&offered),
            OutputFormat::Json => to_json(&offered),
        };
        print!("{text}");
        let constrained = args.selection.constraint.is_some() || args.package.is_some();
        Ok(constrained && offered.iter().any(|p| p.selected.is_none()))
    })();
    match result {
        Ok(false) => ExitCode::SUCCESS,
        Ok(true) => ExitCode::FAILURE,
        Err(e) => print_error(&e),
    }
}

/// Flags of `strake package install-manifest`.
#[derive(Args, Debug)]
pub struct InstallManifestArgs {
    #[command(flatten)]
    pub repo: RepoArgs,
    /// The package to install (its refName).
    #[arg(long = "package", value_name = "REFNAME")]
    pub package: String,
    #[command(flatten)]
    pub selection: SelectionArgs,
    /// Values files (plain YAML), checked against the selected Package's values schema;
    /// repeatable, later files override earlier ones.
    #[arg(long = "values", value_name = "FILE")]
    pub values: Vec<PathBuf>,
    /// Namespace of the PackageInstall and what it comes with.
    #[arg(long = "namespace", value_name = "NS", default_value = "default")]
    pub namespace: String,
    /// Name of the PackageInstall (default: the refName's first segment).
    #[arg(long = "name", value_name = "N")]
    pub name: Option<String>,
    /// ServiceAccount the install runs as (default: `<name>-sa` with --create-rbac).
    #[arg(long = "service-account", value_name = "SA")]
    pub service_account: Option<String>,
    /// Also write the ServiceAccount, a Role or ClusterRole with every permission, and
    /// its binding.
    #[arg(long = "create-rbac")]
    pub create_rbac: bool,
    /// Scope of the generated role and binding: a Role and RoleBinding in the namespace,
    /// or a ClusterRole and ClusterRoleBinding.
    #[arg(long = "rbac-scope", value_enum, default_value_t = RbacScopeArg::Namespace)]
    pub rbac_scope: RbacScopeArg,
    /// Write the ServiceAccount and a binding to this existing ClusterRole (`admin`,
    /// `cluster-admin`, ...) instead of a role of its own (implies --create-rbac).
    #[arg(long = "cluster-role", value_name = "NAME")]
    pub cluster_role: Option<String>,
    /// Name of the values Secret (default: `<name>-values-<hash of the values>`).
    #[arg(long = "values-secret-name", value_name = "N")]
    pub values_secret_name: Option<String>,
    /// Directory of templates replacing the embedded ones of the same name.
    #[arg(long = "templates", value_name = "DIR")]
    pub templates: Option<PathBuf>,
    /// Output file (written atomically); standard output by default.
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    pub output: Option<PathBuf>,
}

#[derive(Clone, Copy, Debug, ValueEnum, PartialEq, Eq)]
pub enum RbacScopeArg {
    Namespace,
    Cluster,
}

/// Runs `strake package install-manifest`: nothing is written unless every step
/// succeeds; the output file is replaced atomically.
pub fn run_install_manifest(args: &InstallManifestArgs) -> ExitCode {
    match install_manifest(args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => print_error(&e),
    }
}

fn install_manifest(args: &InstallManifestArgs) -> anyhow::Result<()> {
    use crate::package::install::{InstallRequest, Rbac, RbacScope, ValuesFile, build};
    let selection = args.selection.selection()?;
    let values = args
        .values
        .iter()
        .map(|path| {
            std::fs::read_to_string(path)
                .map(|text| ValuesFile {
                    origin: path.display().to_string(),
                    text,
                })
                .map_err(|e| anyhow::anyhow!("reading values file '{}': {e}", path.display()))
        })
        .collect::<anyhow::Result<Vec<_>>>()?;
    let resources = match &args.templates {
        Some(dir) => crate::package::Resources::with_template_dir(dir)?,
        None => crate::package::Resources::embedded(),
    };
    let catalog = args.repo.read()?;
    let rbac = (args.create_rbac || args.cluster_role.is_some()).then(|| Rbac {
        scope: match args.rbac_scope {
            RbacScopeArg::Namespace => RbacScope::Namespace,
            RbacScopeArg::Cluster => RbacScope::Cluster,
        },
        existing_cluster_role: args.cluster_role.clone(),
    });
    let request = InstallRequest {
        ref_name: args.package.clone(),
        selection,
        environment: args.selection.environment(),
        values,
        namespace: args.namespace.clone(),
        name: args.name.clone(),
        service_account: args.service_account.clone(),
        rbac,
        values_secret_name: args.values_secret_name.clone(),
    };
    let manifest = build(&catalog, &request, &resources)?;
    let text = manifest.to_yaml()?;
    eprintln!(
        "Selected {} {} ({})",
        args.package, manifest.selected_version, manifest.package_origin
    );
    match &args.output {
        Some(path) => {
            let mut staged = crate::package::artifacts::Staged::default();
            staged.add(path, text.as_bytes())?;
            staged.commit()?;
            eprintln!(
                "Wrote {} resources to {}",
                manifest.documents.len(),
                path.display()
            );
        }
        None => print!("{text}"),
    }
    Ok(())
}
