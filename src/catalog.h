/* catalog.h - the GPUs and models gpuplan knows by id.
 *
 * The catalog is loaded once at start (catalog/gpus.yaml and catalog/models/ *.json, then
 * the user's $XDG_CONFIG_HOME/gpuplan/ files, which add or override entries), is not
 * changed afterwards, and outlives every scenario. Scenarios copy what they use (a struct
 * gpu, a struct model) so they never point into it.
 */
#ifndef GPUPLAN_CATALOG_H
#define GPUPLAN_CATALOG_H

#include <stdbool.h>
#include <stddef.h>

#include "dtype.h"
#include "error.h"
#include "model.h"

struct gpu {
	char id[32];		    /* "h100-sxm-80gb" */
	char name[64];		    /* "NVIDIA H100 SXM5 80GB" */
	char vendor[16];	    /* nvidia | amd | intel */
	char gpu_class[16];	    /* catalog class: datacenter | consumer; "" = datacenter */
	double memory_bytes;	    /* the memory the GPU has (binary: an "80GB" H100 has 80 GiB) */
	double cuda_total_bytes;    /* what CUDA reports as total (cudaMemGetInfo); 0 = not known */
	double listed_memory_bytes; /* memory_bytes as the catalog gave it, beside cuda_total */
	double hbm_bytes_per_s;
	double peak_flops[DTYPE_COUNT];	  /* dense peak per precision; 0 = not supported */
	double sparse_flops[DTYPE_COUNT]; /* datasheet 2:4 figures, shown, never used as peaks */
	char link[24];			  /* nvlink4, pcie, infinity-fabric, ... */
	double link_bytes_per_s;	  /* GPU-to-GPU, per GPU, both directions together */
	int link_domain;		  /* GPUs one link domain joins */
	char pcie[16];			  /* gen5x16 */
	double pcie_bytes_per_s;	  /* per direction */
	double power_w;			  /* board power at load */
	double price_per_hour;		  /* indicative USD per GPU-hour */
	int gpus_per_node;
	double network_bytes_per_s; /* scale-out bandwidth per GPU */
	int sms;		/* streaming multiprocessors (AMD: compute units); 0 = not known */
	double gemm_efficiency; /* measured 16-bit GEMM fraction of the peak; 0 = modelled */
};

struct catalog_model {
	char id[48];
	struct model model;
};

#define CATALOG_MAX_GPUS     96
#define CATALOG_MAX_MODELS   160
#define CATALOG_MAX_WARNINGS 8
#define CATALOG_MAX_SKIPPED  16

/* A user catalog entry that did not import: the id it gave ("" when the file did not
 * parse, so that no id can be read) and the reason, "FILE:LINE:COL: message", for the
 * error of a scenario that names it. */
struct catalog_skip {
	bool gpu; /* a gpus.yaml entry (or the whole file); false: a models/ file */
	char id[48];
	char why[512];
};

struct catalog {
	int ngpus;
	struct gpu gpus[CATALOG_MAX_GPUS];
	char gpu_origin[CATALOG_MAX_GPUS][GP_PATH_MAX]; /* file each entry came from */
	int nmodels;
	struct catalog_model models[CATALOG_MAX_MODELS];
	char model_origin[CATALOG_MAX_MODELS][GP_PATH_MAX]; /* file each entry came from */
	/* The user's model files and GPU entries that did not import and were skipped, one
	 * message each ("FILE:LINE:COL: reason (skipped)", git's style), for the front end to
	 * print. nwarnings_dropped counts those past CATALOG_MAX_WARNINGS. */
	int nwarnings, nwarnings_dropped;
	char warnings[CATALOG_MAX_WARNINGS][512];
	/* The same entries by id, for catalog_skipped(): a scenario that names one fails
	 * with the reason (nskipped stops at CATALOG_MAX_SKIPPED; the warnings still count
	 * every one). */
	int nskipped;
	struct catalog_skip skipped[CATALOG_MAX_SKIPPED];
};

/* Allocates an empty catalog; NULL when out of memory. catalog_free(NULL) is a no-op. */
struct catalog *catalog_new(void);
void catalog_free(struct catalog *cat);

/* Reads DIR/gpus.yaml and DIR/models/ *.json into cat; entries whose id is already there
 * are replaced (so a user catalog loaded second overrides the built-in one). A missing
 * gpus.yaml or models/ folder is not an error when optional is true. Returns 0 or -1. */
int catalog_load_dir(struct catalog *cat, const char *dir, int optional, struct gp_error *err);

/* Parses the text of a gpus.yaml (len bytes; file names it in messages) into cat, with the
 * same rules as catalog_load_dir: strict keys, FILE:LINE:COL errors, ids replaced. */
int catalog_parse_gpus(struct catalog *cat, const char *text, size_t len, const char *file,
		       struct gp_error *err);

/* Loads the built-in catalog (the first of: $GPUPLAN_CATALOG, ./catalog beside the
 * executable, ../share/gpuplan beside it (an installed bin/), GPUPLAN_DATADIR) then the
 * user's ($XDG_CONFIG_HOME/gpuplan or ~/.config/gpuplan). A file of the user's models/ that does
 * not import (a folder, bad JSON, an unknown model type, a bad id) and an entry of the user's
 * gpus.yaml that does not read (a bad value, an unknown or missing key, an id given twice) are
 * skipped with a warning in cat->warnings rather than failing the load; so is the whole user
 * gpus.yaml when it does not parse (a YAML syntax error, not a 'gpus:' list). A skipped GPU entry
 * whose id names a built-in GPU takes that GPU out too: the user meant other figures for it,
 * and a plan must not silently use the shipped ones. The built-in catalog stays strict.
 * exe_path may be NULL. Returns 0 or -1 (a full catalog, out of memory). */
int catalog_load_default(struct catalog *cat, const char *exe_path, struct gp_error *err);

/* The keys a GPU entry of gpus.yaml takes, i = 0, 1, ...; NULL past the last. The man page
 * gpuplan-catalog(5) documents each (tests/unit/test_catalog_man.c checks it). */
const char *catalog_gpu_key(int i);
/* The precisions a GPU entry's peak and sparse take, i = 0, 1, ...; NULL past the last. */
const char *catalog_peak_name(int i);

/* The bytes a plan may fill on g: what CUDA reports as total (the driver keeps the rest,
 * and ECC's share on GDDR parts) when the catalog knows it and memory_bytes is still the
 * catalog's; else memory_bytes (a scenario's hardware.memory is taken as what CUDA sees). */
double gpu_capacity_bytes(const struct gpu *g);

/* The user catalog entry of that id (gpu: a GPU, else a model) that was skipped at load,
 * with why; for a GPU id that no entry names, the whole user gpus.yaml (id "") when it was
 * skipped; NULL when nothing was skipped for it, or cat is NULL. */
const struct catalog_skip *catalog_skipped(const struct catalog *cat, bool gpu, const char *id);

/* Lookups by exact id; NULL when absent. */
const struct gpu *catalog_find_gpu(const struct catalog *cat, const char *id);
const struct catalog_model *catalog_find_model(const struct catalog *cat, const char *id);

/* The known id closest to a misspelt one (edit distance), for "did you mean"; NULL if none
 * is close. */
const char *catalog_suggest_gpu(const struct catalog *cat, const char *id);
const char *catalog_suggest_model(const struct catalog *cat, const char *id);
/* The same as a phrase for "did you mean ...?": every id that starts with id ('h100-sxm-80gb',
 * 'h100-pcie-80gb' or 'h100-nvl-94gb'), else the closest by spelling; "" when none. */
void catalog_suggest_gpus(const struct catalog *cat, const char *id, char *buf, size_t size);
void catalog_suggest_models(const struct catalog *cat, const char *id, char *buf, size_t size);

#endif
