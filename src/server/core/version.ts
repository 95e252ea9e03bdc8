/** The app's version, as the OpenAPI document and health check report it. */
export const APP_VERSION = '1.0.0';
