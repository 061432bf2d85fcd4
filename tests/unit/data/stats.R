# stats.R: the reference values of tests/unit/test_stats.c, computed by R.
# Regenerate (r-base-core):
#   Rscript tests/unit/data/stats.R > tests/unit/data/stats.txt
# Lines: `sample NAME V...`, then what R computes of it:
#   median NAME M
#   ci NAME LEVEL LO HI   (or `ci NAME LEVEL none` when n is too small):
#     the sign test's interval of the median from order statistics,
#     [x(k), x(n-k+1)] with k = qbinom((1 - LEVEL) / 2, n, 1/2)
#   cv NAME SD/MEAN
#   mwu A B U P METHOD: wilcox.test(A, B) two-sided, U its W; METHOD exact
#     (exact = TRUE: no ties, both samples under 50) or normal
#     (exact = FALSE, correct = TRUE)
samples <- list(
  one = c(1.25),
  two = c(3, 1),
  five = c(1.02, 0.98, 1.10, 0.95, 1.01),
  six = c(0.912, 0.931, 0.905, 0.944, 0.921, 0.918),
  seven = c(4.6, 4.4, 4.9, 5.3, 4.7, 4.5, 4.8),
  ties = c(2, 2, 3, 3, 3, 4, 5, 5),
  create = c(8.03, 7.91, 8.22, 8.15, 7.88, 8.40, 8.01, 7.95, 8.11, 8.07),
  read = c(1.19, 1.23, 1.17, 1.31, 1.20, 1.18, 1.25, 1.22, 1.19, 1.28, 1.21, 1.24),
  shifted = c(1.29, 1.33, 1.27, 1.41, 1.30, 1.28, 1.35, 1.32, 1.29, 1.38, 1.31, 1.34),
  stat = c(0.09, 0.11, 0.08, 0.10, 0.09, 0.12, 0.10, 0.09, 0.11, 0.10, 0.13, 0.09,
           0.08, 0.10, 0.11, 0.09, 0.10, 0.12, 0.10, 0.09),
  wide = round(1 + (1:60) * 0.013 + ((1:60 * 37) %% 17) / 100, 4),
  flat = c(5, 5, 5, 5, 5, 5),
  seven_b = c(4.45, 4.52, 4.58, 4.41, 4.63, 4.35, 4.62, 5.12, 4.51)
)
cat("# made by: Rscript tests/unit/data/stats.R > tests/unit/data/stats.txt (", R.version.string, ")\n", sep = "")
num <- function(x) formatC(x, digits = 17, format = "g")
for (name in names(samples)) {
  x <- samples[[name]]
  n <- length(x)
  cat("sample", name, num(x), "\n")
  cat("median", name, num(median(x)), "\n")
  for (level in c(0.95, 0.90, 0.99)) {
    k <- qbinom((1 - level) / 2, n, 0.5)
    if (k < 1) {
      cat("ci", name, level, "none\n")
    } else {
      s <- sort(x)
      cat("ci", name, level, num(s[k]), num(s[n - k + 1]), "\n")
    }
  }
  if (n >= 2) cat("cv", name, num(sd(x) / mean(x)), "\n")
}
pairs <- list(c("five", "six"), c("six", "seven"), c("seven", "five"),
              c("read", "shifted"), c("shifted", "read"), c("create", "create"),
              c("ties", "seven"), c("read", "stat"), c("stat", "read"),
              c("wide", "read"), c("one", "two"), c("two", "five"),
              c("flat", "ties"), c("stat", "stat"),
              c("seven", "seven_b"), c("seven_b", "create"), c("create", "six"))
for (p in pairs) {
  a <- samples[[p[1]]]
  b <- samples[[p[2]]]
  tied <- length(unique(c(a, b))) < length(c(a, b))
  exact <- !tied && length(a) < 50 && length(b) < 50
  w <- suppressWarnings(wilcox.test(a, b, exact = exact, correct = TRUE))
  pv <- if (is.na(w$p.value)) 1 else w$p.value
  cat("mwu", p[1], p[2], num(unname(w$statistic)), num(pv), if (exact) "exact" else "normal", "\n")
}
