/**
 * An audible beep for a refused scan: the clerk is looking at the goods, not the screen. Web
 * Audio may be missing (tests, a locked-down machine) or refuse to start; the beep is then
 * skipped, never an error.
 */

type AudioContextClass = new () => AudioContext;

let context: AudioContext | null = null;

function audioContextClass(): AudioContextClass | undefined {
  if (typeof window === 'undefined') return undefined;
  const scope = window as unknown as {
    AudioContext?: AudioContextClass;
    webkitAudioContext?: AudioContextClass;
  };
  return scope.AudioContext ?? scope.webkitAudioContext;
}

/** A low 0.3 s tone. */
export function beepRefused(): void {
  const Context = audioContextClass();
  if (!Context) return;
  try {
    context ??= new Context();
    if (context.state === 'suspended') void context.resume().catch(() => undefined);
    const oscillator = context.createOscillator();
    const gain = context.createGain();
    oscillator.type = 'square';
    oscillator.frequency.value = 220;
    gain.gain.value = 0.08;
    oscillator.connect(gain).connect(context.destination);
    const now = context.currentTime;
    oscillator.start(now);
    oscillator.stop(now + 0.3);
  } catch {
    // No sound this time; the message on screen still says what happened.
  }
}
