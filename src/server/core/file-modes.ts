/** The data dir holds the signing secret and connection credentials: owner only. */
export const DATA_DIR_MODE = 0o700;
export const DATA_FILE_MODE = 0o600;
