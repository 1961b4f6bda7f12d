export function chromiumExecutable(): string | undefined
export const CHROMIUM_FLAGS: readonly string[]
export function chromiumLaunchOptions(): { executablePath?: string; args: string[] }
