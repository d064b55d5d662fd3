public enum CLI {}
