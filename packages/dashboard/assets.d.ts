/** The built dashboard's folder: `index.html` and `assets/`. */
export declare const DASHBOARD_DIST: URL
