export function staleBuild(packageUrl: URL): string | undefined
